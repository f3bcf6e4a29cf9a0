// The server-side JavaScript API of Cosmos DB (getContext, getCollection, __ ...), over one host
// function. Evaluated once per context; its value is the function that installs the API.
//
// host(op, argsJson) -> JSON text: {"ok": result, "options": {...}} | {"err": {number, body}} |
// {"accepted": false}. Operations run at once, in the engine's transaction; their callbacks are
// queued and run after the caller returns, in order, as the service runs them asynchronously. So a
// bulk import that chains create -> callback -> create does not nest its stack.
(function (host) {
  'use strict';
  var NativeError = Error;
  var queue = [];

  function call(op, args) {
    return JSON.parse(host(op, JSON.stringify(args === undefined ? null : args)));
  }

  function scriptError(e) {
    var err = new NativeError(e.body);
    err.number = e.number;
    err.body = e.body;
    return err;
  }

  // Error(404, "message"): the service's form, whose number becomes the response's sub-status
  var CosmosError = new Proxy(NativeError, {
    construct: function (target, args) {
      if (typeof args[0] === 'number' && args.length > 1) {
        var e = Reflect.construct(target, [args[1]]);
        e.number = args[0];
        return e;
      }
      return Reflect.construct(target, args);
    },
    apply: function (target, self, args) {
      return new CosmosError(args[0], args[1]);
    }
  });
  globalThis.Error = CosmosError;

  globalThis.ErrorCodes = Object.freeze({
    BadRequest: 400, Forbidden: 403, NotFound: 404, Conflict: 409, PreconditionFailed: 412,
    RequestEntityTooLarge: 413, RequestTimeout: 408, RetryWith: 449, InternalServerError: 500
  });

  function text(v) {
    if (typeof v === 'string') return v;
    try { return JSON.stringify(v); } catch (e) { return String(v); }
  }
  // console.log formats as Node's util.format does: a first string argument's %s takes the next
  // argument as text (the Java SDK's tests read "The value of %s is %s." with "x", 1 back as "The
  // value of x is 1."); [A] %d, %i, %f take it as a number, %j as JSON, %% is a percent sign; the
  // arguments left over follow, separated by spaces
  function formatted(args) {
    var rest = Array.prototype.slice.call(args);
    if (rest.length === 1 && typeof rest[0] === 'string') return rest[0]; // as Node: unchanged
    var parts = [];
    if (typeof rest[0] === 'string') {
      var first = rest.shift();
      parts.push(first.replace(/%([sdifj%])/g, function (m, f) {
        if (f === '%') return '%';
        if (rest.length === 0) return m;
        var v = rest.shift();
        if (f === 's') return text(v);
        if (f === 'd') return String(Number(v));
        if (f === 'i') return String(parseInt(v, 10));
        if (f === 'f') return String(parseFloat(v));
        try { return String(JSON.stringify(v)); } catch (e) { return '[Circular]'; } // %j
      }));
    }
    for (var i = 0; i < rest.length; i++) parts.push(text(rest[i]));
    return parts.join(' ');
  }
  globalThis.console = Object.freeze({
    log: function () { host('log', JSON.stringify(formatted(arguments))); }
  });

  // an operation with its optional options and callback: returns isAccepted
  function operation(name, args, options, callback) {
    if (typeof options === 'function') { callback = options; options = {}; }
    options = options || {};
    var r = call(name, { args: args, options: options });
    if (r.accepted === false) return false;
    if (r.err) {
      var err = scriptError(r.err);
      queue.push(typeof callback === 'function'
          ? function () { callback(err, undefined, {}); }
          : function () { throw err; });
    } else if (typeof callback === 'function') {
      var value = r.ok, responseOptions = r.options || {};
      queue.push(name === 'delete'
          ? function () { callback(undefined, responseOptions); }
          : function () { callback(undefined, value, responseOptions); });
    }
    return true;
  }

  function checkDocument(doc, what) {
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
      throw new CosmosError(400, what + ' needs a document (a JSON object), was ' + text(doc));
    }
  }

  var collection = Object.freeze({
    getSelfLink: function () { return host('selfLink', 'null'); },
    getAltLink: function () { return host('altLink', 'null'); },
    createDocument: function (link, doc, options, callback) {
      checkDocument(doc, 'createDocument');
      return operation('create', [doc], options, callback);
    },
    upsertDocument: function (link, doc, options, callback) {
      checkDocument(doc, 'upsertDocument');
      return operation('upsert', [doc], options, callback);
    },
    readDocument: function (link, options, callback) {
      return operation('read', [link], options, callback);
    },
    replaceDocument: function (link, doc, options, callback) {
      checkDocument(doc, 'replaceDocument');
      return operation('replace', [link, doc], options, callback);
    },
    deleteDocument: function (link, options, callback) {
      return operation('delete', [link], options, callback);
    },
    patchDocument: function (link, patchSpec, options, callback) {
      return operation('patch', [link, patchSpec], options, callback);
    },
    queryDocuments: function (link, query, options, callback) {
      var spec = typeof query === 'string' ? { query: query, parameters: null } : query;
      return operation('query', [spec.query, spec.parameters || null], options, callback);
    },
    readDocuments: function (link, options, callback) {
      return operation('readAll', [], options, callback);
    }
  });

  // __: the collection, plus the fluent query API over the logical partition's documents. Past the
  // script's budget the read is not accepted, as an operation is not: every step passes that on,
  // the callback does not run, and the call answers isAccepted false.
  var NOT_ACCEPTED = Object.freeze({});
  function all() {
    var docs = [], continuation;
    do {
      var r = call('readAll', { args: [], options: { pageSize: 1000, continuation: continuation } });
      if (r.accepted === false) return NOT_ACCEPTED;
      if (r.err) throw scriptError(r.err);
      docs = docs.concat(r.ok);
      continuation = r.options.continuation;
    } while (continuation);
    return docs;
  }
  function finish(result, options, callback) {
    if (typeof options === 'function') { callback = options; }
    if (result === NOT_ACCEPTED) return { isAccepted: false };
    if (typeof callback === 'function') {
      queue.push(function () { callback(undefined, result, {}); });
    }
    return { isAccepted: true };
  }
  function flatten(docs, shallow) {
    var out = [];
    (function add(xs, depth) {
      for (var i = 0; i < xs.length; i++) {
        if (Array.isArray(xs[i]) && (!shallow || depth === 0)) add(xs[i], depth + 1);
        else out.push(xs[i]);
      }
    })(docs, 0);
    return out;
  }
  function steps(source) {
    // each step runs on its source's documents, or passes on that they were not accepted
    function over(f) {
      return function (arg) { var d = source(); return d === NOT_ACCEPTED ? d : f(d, arg); };
    }
    return {
      filter: over(function (d, p) { return d.filter(function (x) { return p(x); }); }),
      map: over(function (d, f) { return d.map(function (x) { return f(x); }); }),
      pluck: over(function (d, name) { return d.map(function (x) { return x[name]; }); }),
      flatten: over(function (d, shallow) { return flatten(d, shallow); }),
      sortBy: over(function (d, f) { return d.slice().sort(compareBy(f, 1)); }),
      sortByDescending: over(function (d, f) { return d.slice().sort(compareBy(f, -1)); }),
      unwind: over(function (d, f) {
        var out = [];
        d.forEach(function (x) { (f(x) || []).forEach(function (y) { out.push([x, y]); }); });
        return out;
      })
    };
  }
  function compareBy(f, sign) {
    return function (a, b) { var x = f(a), y = f(b); return x < y ? -sign : x > y ? sign : 0; };
  }
  function chain(source) {
    var s = steps(source);
    var c = {};
    Object.keys(s).forEach(function (k) {
      c[k] = function () {
        var args = arguments, result;
        return chain(function () { if (result === undefined) result = s[k].apply(null, args); return result; });
      };
    });
    c.value = function (options, callback) { return finish(source(), options, callback); };
    return c;
  }
  var fluent = {};
  Object.keys(collection).forEach(function (k) { fluent[k] = collection[k]; });
  var direct = steps(all);
  ['filter', 'map', 'pluck', 'flatten', 'sortBy', 'sortByDescending', 'unwind'].forEach(function (k) {
    fluent[k] = function () {
      var args = Array.prototype.slice.call(arguments);
      var takes = k === 'pluck' || k === 'flatten' || k === 'filter' || k === 'map' || k === 'sortBy'
          || k === 'sortByDescending' || k === 'unwind' ? 1 : 0;
      var rest = args.slice(takes);
      return finish(direct[k].apply(null, args.slice(0, takes)), rest[0], rest[1]);
    };
  });
  fluent.chain = function () { return chain(all); };
  fluent.value = function (options, callback) { return finish(all(), options, callback); };
  globalThis.__ = Object.freeze(fluent);

  function message(kind) {
    var body, bodyRead = false;
    var self = Object.freeze({
      getBody: function () {
        if (!bodyRead) { body = JSON.parse(host(kind + 'Body', 'null')); bodyRead = true; }
        return body;
      },
      setBody: function (b) {
        var r = JSON.parse(host('set' + kind + 'Body', b === undefined ? 'null' : JSON.stringify(b)));
        if (r && r.err) throw scriptError(r.err);
        body = b; bodyRead = true;
      },
      appendBody: function (s) {
        var b = (bodyRead ? body : JSON.parse(host(kind + 'Body', 'null')));
        self.setBody((b === null || b === undefined ? '' : String(b)) + String(s));
      },
      // appends to a field: "Body" is the body (the Java SDK's tests build "0123456789" with
      // appendValue("Body", i)); another name is a header, as setValue takes it
      appendValue: function (name, value) {
        if (String(name).toLowerCase() === 'body') { self.appendBody(value); return; }
        var was = self.getValue(name);
        self.setValue(name, (was === null || was === undefined ? '' : String(was)) + String(value));
      },
      // the request's headers (names case-insensitive); the response's are not made yet [A]
      getValue: function (name) {
        return kind === 'request' ? JSON.parse(host('header', JSON.stringify(String(name)))) : null;
      },
      setValue: function (name, value) {
        if (kind !== 'request') {
          throw new CosmosError(400, 'getResponse().setValue: the response headers are the service\'s');
        }
        var r = JSON.parse(host('setHeader', JSON.stringify([String(name), String(value)])));
        if (r.err) throw scriptError(r.err);
      },
      getOperationType: function () { return JSON.parse(host('operationType', 'null')); },
      getMaxResponseBodySize: function () { return JSON.parse(host('maxResponseBodySize', 'null')); }
    });
    return self;
  }
  var context = Object.freeze({
    getCollection: function () { return collection; },
    getRequest: (function (r) { return function () { return r; }; })(message('request')),
    getResponse: (function (r) { return function () { return r; }; })(message('response'))
  });
  globalThis.getContext = function () { return context; };

  // runs the script's function, then the callbacks its operations queued, until none is left
  return function run(main, argsJson) {
    if (typeof main !== 'function') {
      throw new CosmosError(400, 'the script body must be a function, e.g. function (a, b) { ... }');
    }
    var args = JSON.parse(argsJson);
    var result = main.apply(null, Array.isArray(args) ? args : [args]);
    while (queue.length > 0) {
      queue.shift()();
    }
    return result === undefined ? 'null' : JSON.stringify(result);
  };
})
