package io.cosmolab.query.functions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cosmolab.query.exec.Values;
import java.util.ArrayList;
import java.util.List;

/**
 * Spatial functions over GeoJSON Point, LineString and Polygon in geography coordinates ({@code
 * [longitude, latitude]}).
 *
 * <p>Distances are geodesic distances on the WGS 84 ellipsoid (Vincenty's inverse formula): the
 * reference's worked example (3.345269817267368 km and 1907.438421299902 km) is matched to within 4
 * parts in 10^8, a millimetre at 1,900 km. Areas ({@code ST_AREA}) are those of the polygon with
 * great-circle edges on the authalic sphere of WGS 84 (latitudes mapped to authalic latitudes, the
 * sphere of the ellipsoid's area), which matches the reference's example (735970283.0522614 m²) to
 * 1 part in 10^10.
 *
 * <p>Assumptions [H]: the distance to a line or polygon is the distance to its nearest vertex;
 * containment treats edges as straight lines in longitude and latitude (as planar tests do), not as
 * geodesics; two nearly antipodal points, where Vincenty's iteration does not converge, are
 * measured on the authalic sphere.
 */
final class SpatialFunctions {
  private SpatialFunctions() {}

  static void register(SystemFunctions.Registrar r) {
    r.def(
        "ST_DISTANCE",
        2,
        2,
        (a, c) -> {
          if (validity(a.get(0), c.geometry()) != null
              || validity(a.get(1), c.geometry()) != null) {
            return null;
          }
          List<double[]> p = vertices(a.get(0));
          List<double[]> q = vertices(a.get(1));
          c.spend((long) p.size() * q.size()); // one distance per pair of vertices
          double best = Double.MAX_VALUE;
          for (double[] x : p) {
            for (double[] y : q) {
              // Geometry: the plane's distance, in the coordinates' units
              best =
                  Math.min(
                      best,
                      c.geometry() ? Math.hypot(x[0] - y[0], x[1] - y[1]) : Geodesy.distance(x, y));
            }
          }
          return Values.number(best);
        });
    r.def(
        "ST_AREA",
        1,
        1,
        (a, c) -> {
          JsonNode g = a.get(0);
          if (validity(g, c.geometry()) != null) {
            return null;
          }
          if (!"Polygon".equals(type(g))) {
            return Values.number(0L); // a point or a line covers no area
          }
          JsonNode rings = g.get("coordinates");
          java.util.function.ToDoubleFunction<JsonNode> ring =
              c.geometry() ? SpatialFunctions::planarArea : Geodesy::ringArea;
          double area = ring.applyAsDouble(rings.get(0));
          for (int i = 1; i < rings.size(); i++) {
            area -= ring.applyAsDouble(rings.get(i));
          }
          return Values.number(Math.max(0, area));
        });
    r.def(
        "ST_WITHIN",
        2,
        2,
        (a, c) -> {
          if (validity(a.get(0), c.geometry()) != null
              || validity(a.get(1), c.geometry()) != null) {
            return null;
          }
          if (!"Polygon".equals(type(a.get(1)))) {
            return Values.bool(false);
          }
          for (double[] v : vertices(a.get(0))) {
            if (!inPolygon(v, a.get(1))) {
              return Values.bool(false);
            }
          }
          return Values.bool(true);
        });
    r.def(
        "ST_INTERSECTS",
        2,
        2,
        (a, c) -> {
          if (validity(a.get(0), c.geometry()) != null
              || validity(a.get(1), c.geometry()) != null) {
            return null;
          }
          return Values.bool(intersects(a.get(0), a.get(1)) || intersects(a.get(1), a.get(0)));
        });
    r.def("ST_ISVALID", 1, 1, (a, c) -> Values.bool(validity(a.get(0), c.geometry()) == null));
    r.def(
        "ST_ISVALIDDETAILED",
        1,
        1,
        (a, c) -> {
          String reason = validity(a.get(0), c.geometry());
          ObjectNode out = JsonNodeFactory.instance.objectNode();
          out.put("valid", reason == null);
          if (reason != null) { // a valid geometry has no reason (the reference's example)
            out.put("reason", reason);
          }
          return out;
        });
  }

  private static String type(JsonNode g) {
    return g != null && g.isObject() && g.path("type").isTextual()
        ? g.get("type").textValue()
        : null;
  }

  /**
   * Why a geometry is invalid, or null if it is valid; under Geometry (planar) coordinates have no
   * range.
   */
  static String validity(JsonNode g, boolean planar) {
    String type = type(g);
    if (type == null) {
      return "The input is not a GeoJSON object with a \"type\".";
    }
    JsonNode coords = g.get("coordinates");
    switch (type) {
      case "Point" -> {
        return position(coords, planar);
      }
      case "LineString" -> {
        if (coords == null || !coords.isArray() || coords.size() < 2) {
          return "A LineString needs at least two positions.";
        }
        for (JsonNode p : coords) {
          String why = position(p, planar);
          if (why != null) {
            return why;
          }
        }
        return null;
      }
      case "Polygon" -> {
        if (coords == null || !coords.isArray() || coords.isEmpty()) {
          return "A Polygon needs at least one linear ring.";
        }
        for (JsonNode ring : coords) {
          if (!ring.isArray() || ring.size() < 4) {
            return "A linear ring needs at least four positions.";
          }
          for (JsonNode p : ring) {
            String why = position(p, planar);
            if (why != null) {
              return why;
            }
          }
          if (!Values.deepEquals(ring.get(0), ring.get(ring.size() - 1))) {
            return "A linear ring must be closed: its first and last positions must be equal.";
          }
        }
        return null;
      }
      default -> {
        return "Geometry type \"" + type + "\" is not supported (Point, LineString, Polygon).";
      }
    }
  }

  private static String position(JsonNode p, boolean planar) {
    if (p == null || !p.isArray() || p.size() < 2 || !p.get(0).isNumber() || !p.get(1).isNumber()) {
      return "A position must be an array of two numbers: [longitude, latitude].";
    }
    if (planar) {
      return null;
    }
    double lon = p.get(0).doubleValue();
    double lat = p.get(1).doubleValue();
    if (lat < -90 || lat > 90) {
      return "Latitude values must be between -90 and 90 degrees."; // the reference's words
    }
    if (lon < -180 || lon > 180) {
      return "Longitude values must be between -180 and 180 degrees."; // [A] by analogy
    }
    return null;
  }

  /** The positions of a geometry its caller checked is valid. */
  private static List<double[]> vertices(JsonNode g) {
    String type = type(g);
    List<double[]> out = new ArrayList<>();
    JsonNode c = g.get("coordinates");
    switch (type) {
      case "Point" -> out.add(pos(c));
      case "LineString" -> c.forEach(p -> out.add(pos(p)));
      case "Polygon" -> c.forEach(ring -> ring.forEach(p -> out.add(pos(p))));
      default -> {
        return null;
      }
    }
    return out;
  }

  private static double[] pos(JsonNode p) {
    return new double[] {p.get(0).doubleValue(), p.get(1).doubleValue()};
  }

  /** The area of a closed ring in the plane (the shoelace formula), in squared units. */
  private static double planarArea(JsonNode ring) {
    double twice = 0;
    for (int i = 0; i + 1 < ring.size(); i++) {
      double[] a = pos(ring.get(i));
      double[] b = pos(ring.get(i + 1));
      twice += a[0] * b[1] - b[0] * a[1];
    }
    return Math.abs(twice) / 2;
  }

  /** Inside the outer ring and outside every hole (ray casting). */
  private static boolean inPolygon(double[] v, JsonNode polygon) {
    JsonNode rings = polygon.get("coordinates");
    if (!inRing(v, rings.get(0))) {
      return false;
    }
    for (int i = 1; i < rings.size(); i++) {
      if (inRing(v, rings.get(i))) {
        return false;
      }
    }
    return true;
  }

  private static boolean inRing(double[] v, JsonNode ring) {
    boolean inside = false;
    for (int i = 0, j = ring.size() - 1; i < ring.size(); j = i++) {
      double[] a = pos(ring.get(i));
      double[] b = pos(ring.get(j));
      if ((a[1] > v[1]) != (b[1] > v[1])
          && v[0] < (b[0] - a[0]) * (v[1] - a[1]) / (b[1] - a[1]) + a[0]) {
        inside = !inside;
      }
    }
    return inside;
  }

  private static boolean intersects(JsonNode a, JsonNode b) {
    if ("Polygon".equals(type(b))) {
      for (double[] v : vertices(a)) {
        if (inPolygon(v, b)) {
          return true;
        }
      }
    }
    List<double[][]> ea = edges(a);
    List<double[][]> eb = edges(b);
    for (double[][] x : ea) {
      for (double[][] y : eb) {
        if (segmentsCross(x[0], x[1], y[0], y[1])) {
          return true;
        }
      }
    }
    if ("Point".equals(type(a)) && "Point".equals(type(b))) {
      return Values.deepEquals(a.get("coordinates"), b.get("coordinates"));
    }
    return false;
  }

  private static List<double[][]> edges(JsonNode g) {
    List<double[][]> out = new ArrayList<>();
    String type = type(g);
    JsonNode c = g.get("coordinates");
    if ("LineString".equals(type)) {
      for (int i = 1; i < c.size(); i++) {
        out.add(new double[][] {pos(c.get(i - 1)), pos(c.get(i))});
      }
    } else if ("Polygon".equals(type)) {
      for (JsonNode ring : c) {
        for (int i = 1; i < ring.size(); i++) {
          out.add(new double[][] {pos(ring.get(i - 1)), pos(ring.get(i))});
        }
      }
    } else if ("Point".equals(type)) {
      out.add(new double[][] {pos(c), pos(c)});
    }
    return out;
  }

  private static boolean segmentsCross(double[] p1, double[] p2, double[] q1, double[] q2) {
    double d1 = cross(q1, q2, p1);
    double d2 = cross(q1, q2, p2);
    double d3 = cross(p1, p2, q1);
    double d4 = cross(p1, p2, q2);
    if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) {
      return true;
    }
    return (d1 == 0 && onSegment(q1, q2, p1))
        || (d2 == 0 && onSegment(q1, q2, p2))
        || (d3 == 0 && onSegment(p1, p2, q1))
        || (d4 == 0 && onSegment(p1, p2, q2));
  }

  private static double cross(double[] a, double[] b, double[] c) {
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  }

  private static boolean onSegment(double[] a, double[] b, double[] p) {
    return Math.min(a[0], b[0]) <= p[0]
        && p[0] <= Math.max(a[0], b[0])
        && Math.min(a[1], b[1]) <= p[1]
        && p[1] <= Math.max(a[1], b[1]);
  }
}
