/*
 * The Azure Cosmos DB for NoSQL query language, written from its public reference
 * (learn.microsoft.com "Query language" pages: SELECT, FROM, WHERE, GROUP BY, ORDER BY,
 * OFFSET LIMIT, keywords, operators, subqueries) and from recordings of the service
 * (gateway-protocol.md section 13: '--' comments work, a trailing ';' and block comments do not).
 *
 * Operator precedence, tightest first: member and index access; unary - + ~; * / %; + -; ||;
 * << >> >>>; &; ^; |; comparisons; IN, BETWEEN, LIKE; NOT; AND; OR; ??; ? :.
 * Keywords are case-insensitive. A keyword can still name a property after '.' (c.value).
 */
grammar CosmosSql;

program
    : selectQuery EOF
    ;

selectQuery
    : SELECT DISTINCT? topClause? selectSpec fromClause? whereClause? groupByClause?
      orderByClause? offsetLimitClause?
    ;

topClause
    : TOP (NUMBER_LITERAL | PARAMETER)
    ;

selectSpec
    : STAR                                          # selectStar
    | VALUE expression                              # selectValue
    | selectItem (COMMA selectItem)*                # selectList
    ;

selectItem
    : expression (AS? identifier)?
    ;

fromClause
    : FROM fromSource (JOIN fromSource)*
    ;

fromSource
    : identifier IN collection                      # iterationSource
    | collection (AS? identifier)?                  # aliasedSource
    ;

collection
    : identifier pathSegment*                       # pathCollection
    | LPAREN selectQuery RPAREN                     # subqueryCollection
    ;

pathSegment
    : DOT propertyName                              # dotSegment
    | LBRACKET (STRING_LITERAL | NUMBER_LITERAL | PARAMETER) RBRACKET   # indexSegment
    ;

whereClause
    : WHERE expression
    ;

groupByClause
    : GROUP BY expression (COMMA expression)*
    ;

// ORDER BY RANK takes one scoring function (FullTextScore, VectorDistance or RRF) and no direction
orderByClause
    : ORDER BY RANK expression                      # rankOrderBy
    | ORDER BY orderItem (COMMA orderItem)*         # keyOrderBy
    ;

orderItem
    : expression (ASC | DESC)?
    ;

offsetLimitClause
    : OFFSET offsetValue=countValue LIMIT limitValue=countValue
    ;

countValue
    : NUMBER_LITERAL
    | PARAMETER
    ;

// Two levels, so that BETWEEN's bounds stop at AND: in "x BETWEEN 1 AND 2 AND y" the first AND
// belongs to BETWEEN and the second joins two conditions. A bound is a valueExpression, which has
// no AND or OR at its top (parentheses bring them back).
expression
    : valueExpression                                                   # valueOnlyExpression
    | NOT expression                                                    # notExpression
    | expression AND expression                                         # andExpression
    | expression OR expression                                          # orExpression
    | expression COALESCE expression                                    # coalesceExpression
    | <assoc=right> expression QUESTION expression COLON expression     # conditionalExpression
    ;

valueExpression
    : primary                                                           # primaryExpression
    | valueExpression DOT propertyName                                  # memberExpression
    | valueExpression LBRACKET expression RBRACKET                      # indexExpression
    | op=(MINUS | PLUS | TILDE) valueExpression                         # unaryExpression
    | valueExpression op=(STAR | SLASH | PERCENT) valueExpression       # multiplicativeExpression
    | valueExpression op=(PLUS | MINUS) valueExpression                 # additiveExpression
    | valueExpression CONCAT valueExpression                            # concatExpression
    | valueExpression op=(SHIFT_LEFT | SHIFT_RIGHT | SHIFT_RIGHT_ZERO) valueExpression   # shiftExpression
    | valueExpression AMPERSAND valueExpression                         # bitAndExpression
    | valueExpression CARET valueExpression                             # bitXorExpression
    | valueExpression PIPE valueExpression                              # bitOrExpression
    | valueExpression op=(EQ | NEQ | NEQ2 | LT | LTE | GT | GTE) valueExpression  # comparisonExpression
    | valueExpression NOT? IN LPAREN expression (COMMA expression)* RPAREN   # inExpression
    | valueExpression NOT? BETWEEN valueExpression AND valueExpression  # betweenExpression
    | valueExpression NOT? LIKE valueExpression (ESCAPE valueExpression)?   # likeExpression
    ;

primary
    : literal                                                           # literalPrimary
    | PARAMETER                                                         # parameterPrimary
    | UDF DOT identifier LPAREN arguments? RPAREN                       # udfCallPrimary
    | identifier LPAREN arguments? RPAREN                               # functionCallPrimary
    | identifier                                                        # identifierPrimary
    | LBRACKET arguments? RBRACKET                                      # arrayPrimary
    | LBRACE (objectProperty (COMMA objectProperty)*)? RBRACE           # objectPrimary
    | EXISTS LPAREN selectQuery RPAREN                                  # existsPrimary
    | ARRAY LPAREN selectQuery RPAREN                                   # arraySubqueryPrimary
    | LPAREN selectQuery RPAREN                                         # scalarSubqueryPrimary
    | LPAREN expression RPAREN                                          # parenthesizedPrimary
    ;

arguments
    : expression (COMMA expression)*
    ;

objectProperty
    : (STRING_LITERAL | propertyName) COLON expression
    ;

literal
    : STRING_LITERAL
    | NUMBER_LITERAL
    | TRUE
    | FALSE
    | NULL
    | UNDEFINED
    ;

// RANK is a keyword only after ORDER BY; elsewhere it names what it always did
identifier
    : IDENTIFIER
    | ROOT
    | RANK
    ;

/* After '.', and as an object-literal key, any word is a property name, keywords included. */
propertyName
    : IDENTIFIER | ROOT | SELECT | DISTINCT | TOP | VALUE | AS | FROM | JOIN | IN | WHERE | GROUP
    | BY | ORDER | ASC | DESC | OFFSET | LIMIT | AND | OR | NOT | BETWEEN | LIKE | ESCAPE
    | EXISTS | ARRAY | TRUE | FALSE | NULL | UNDEFINED | UDF | RANK
    ;

// ---------------------------------------------------------------------------------- lexer

SELECT    : S E L E C T ;
DISTINCT  : D I S T I N C T ;
TOP       : T O P ;
VALUE     : V A L U E ;
AS        : A S ;
FROM      : F R O M ;
JOIN      : J O I N ;
IN        : I N ;
WHERE     : W H E R E ;
GROUP     : G R O U P ;
BY        : B Y ;
ORDER     : O R D E R ;
ASC       : A S C ;
DESC      : D E S C ;
OFFSET    : O F F S E T ;
LIMIT     : L I M I T ;
AND       : A N D ;
OR        : O R ;
NOT       : N O T ;
BETWEEN   : B E T W E E N ;
LIKE      : L I K E ;
ESCAPE    : E S C A P E ;
EXISTS    : E X I S T S ;
ARRAY     : A R R A Y ;
TRUE      : T R U E ;
FALSE     : F A L S E ;
NULL      : N U L L ;
UNDEFINED : U N D E F I N E D ;
UDF       : U D F ;
ROOT      : R O O T ;
RANK      : R A N K ;

COALESCE         : '??' ;
CONCAT           : '||' ;
SHIFT_RIGHT_ZERO : '>>>' ;
SHIFT_LEFT       : '<<' ;
SHIFT_RIGHT      : '>>' ;
NEQ              : '!=' ;
NEQ2             : '<>' ;
LTE              : '<=' ;
GTE              : '>=' ;
EQ               : '=' ;
LT               : '<' ;
GT               : '>' ;
STAR             : '*' ;
SLASH            : '/' ;
PERCENT          : '%' ;
PLUS             : '+' ;
MINUS            : '-' ;
TILDE            : '~' ;
AMPERSAND        : '&' ;
CARET            : '^' ;
PIPE             : '|' ;
QUESTION         : '?' ;
COLON            : ':' ;
COMMA            : ',' ;
DOT              : '.' ;
LPAREN           : '(' ;
RPAREN           : ')' ;
LBRACKET         : '[' ;
RBRACKET         : ']' ;
LBRACE           : '{' ;
RBRACE           : '}' ;

PARAMETER      : '@' [a-zA-Z_$] [a-zA-Z0-9_$]* ;
IDENTIFIER     : [a-zA-Z_$] [a-zA-Z0-9_$]* ;
NUMBER_LITERAL : '0' [xX] [0-9a-fA-F]+
               | ( [0-9]+ ( '.' [0-9]* )? | '.' [0-9]+ ) ( [eE] [+-]? [0-9]+ )?
               ;
STRING_LITERAL : '"' ( ESC | ~["\\\r\n] )* '"'
               | '\'' ( ESC | ~['\\\r\n] )* '\''
               ;

LINE_COMMENT : '--' ~[\r\n]* -> skip ;
WS           : [ \t\r\n\u000C]+ -> skip ;

/* Anything else is a token of its own, so the parser reports it with its position. */
UNEXPECTED_CHAR : . ;

fragment ESC : '\\' ( ["'\\/bfnrt] | 'u' HEX HEX HEX HEX ) ;
fragment HEX : [0-9a-fA-F] ;
fragment A : [aA] ; fragment B : [bB] ; fragment C : [cC] ; fragment D : [dD] ;
fragment E : [eE] ; fragment F : [fF] ; fragment G : [gG] ; fragment H : [hH] ;
fragment I : [iI] ; fragment J : [jJ] ; fragment K : [kK] ; fragment L : [lL] ;
fragment M : [mM] ; fragment N : [nN] ; fragment O : [oO] ; fragment P : [pP] ;
fragment Q : [qQ] ; fragment R : [rR] ; fragment S : [sS] ; fragment T : [tT] ;
fragment U : [uU] ; fragment V : [vV] ; fragment W : [wW] ; fragment X : [xX] ;
fragment Y : [yY] ; fragment Z : [zZ] ;
