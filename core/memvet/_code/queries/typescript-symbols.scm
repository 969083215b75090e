; Definitions in TypeScript and TSX (a superset of the JavaScript rules).
; Patterns listed first win when two match the same node.

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(function_signature name: (identifier) @name) @definition.function
(class_declaration name: (type_identifier) @name) @definition.class
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(method_definition name: [(property_identifier) (private_property_identifier) (string) (number)] @name) @definition.method
(method_signature name: [(property_identifier) (private_property_identifier) (string) (number)] @name) @definition.method
(abstract_method_signature name: [(property_identifier) (private_property_identifier) (string) (number)] @name) @definition.method
(interface_declaration name: (type_identifier) @name) @definition.interface
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.enum
(internal_module name: [(identifier) (nested_identifier)] @name) @definition.namespace
(module name: [(identifier) (nested_identifier)] @name) @definition.namespace

(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
(variable_declarator
  name: (identifier) @name
  value: (class)) @definition.class

(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function) (function_expression)]) @definition.method
; Any other class field, static or not: `static passThroughHooks = new Set()`.
(public_field_definition
  name: [(property_identifier) (private_property_identifier) (string) (number)] @name) @definition.field

(pair
  key: [(property_identifier) (string) (number)] @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method

; A named function passed as an argument names a function: `morgan.token('url',
; function getUrlToken (req) {...})` -> getUrlToken, `app.get('/', function
; handler (req, res) {...})` -> handler. It is no scope (what it defines keeps
; the names it had), and a name its scope already defines wins (see _symbols.py).
(arguments (function_expression name: (identifier) @name) @definition.callback)

; Legacy assignments (see the package docs for the naming rule):
; `Parser.prototype.parse = function () {}`, `exports.x = () => ...`,
; `module.exports.Y = class {}`, `parse = function () {}`.
(assignment_expression
  left: [(identifier) (member_expression) (subscript_expression)] @name
  right: [(arrow_function) (function_expression) (generator_function)]) @definition.function
(assignment_expression
  left: [(identifier) (member_expression) (subscript_expression)] @name
  right: (class)) @definition.class
; Chained bindings name one function several times: `_.each = _.forEach =
; function () {}`, `var Model = Backbone.Model = function () {}`; each name is
; a symbol when the chain ends in a function or class (checked in code).
(assignment_expression
  left: [(identifier) (member_expression) (subscript_expression)] @name
  right: (assignment_expression)) @definition.chain
(variable_declarator name: (identifier) @name value: (assignment_expression)) @definition.chain
; A top-level member assignment of any other value is a variable:
; `module.exports = {...}`, `exports.VERSION = "1.0"`.
(program (expression_statement
  (assignment_expression left: [(member_expression) (subscript_expression)] @name) @definition.variable))
; Elsewhere an object assigned to a name names a scope:
; `Parser.prototype = { parse: function () {} }` -> Parser.prototype.parse,
; `boolHook = { set: function () {} }` -> boolHook.set
(assignment_expression
  left: [(identifier) (member_expression) (subscript_expression)] @name
  right: (object)) @scope.object

; Mixins: an object passed to extend/assign/mixin/merge after a named target
; names its members by the target: `_.extend(Model.prototype, Events, {...})`,
; `Object.assign(Foo.prototype, {...})`, `extend(Foo, {...})`, also when the
; call's result is bound: `jQuery.Animation = jQuery.extend(Animation, {...})`.
(call_expression
  function: (member_expression property: (property_identifier) @_m
    (#any-of? @_m "extend" "assign" "mixin" "merge"))
  arguments: (arguments . [(identifier) (member_expression)] @name (object) @scope.mixin))
(call_expression
  function: (identifier) @_m (#any-of? @_m "extend" "assign" "mixin" "merge")
  arguments: (arguments . [(identifier) (member_expression)] @name (object) @scope.mixin))
; A statement `jQuery.fn.extend({...})` extends its callee's object in place:
; members are `jQuery.fn.x`. (Used as a value, `var V = Base.extend({...})`,
; the object's members belong to the binding: `V.x`.)
(expression_statement (call_expression
  function: (member_expression object: [(identifier) (member_expression)] @name
    property: (property_identifier) @_m (#any-of? @_m "extend" "mixin"))
  arguments: (arguments . (object) @scope.object .)))

(program (lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable))
(program (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable))
(program (export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable)))
(program (export_statement declaration: (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable)))

(pair key: [(property_identifier) (string)] @name value: (object)) @scope.object

; Below the top level, a binding of an object (or of a call taking one)
; names a scope: `function f() { const api = { get() {} } }` -> f.api.get,
; `var View = Base.extend({ render() {} })` -> View.render.
(variable_declarator name: (identifier) @name value: (object)) @scope.object
(variable_declarator
  name: (identifier) @name
  value: (call_expression arguments: (arguments (object)))) @scope.object

; The module pattern: a name bound to what an immediately invoked function
; returns names a scope for what the function defines, so the helpers of two
; modules in one bundle are told apart: `var Foo = (function () { var helper
; = function () {} })()` -> Foo.helper. (At the top level the binding is a
; variable, which names the same scope.) What the function defines under
; the binding's own name is that name (`function Foo`, `Foo.prototype.x`;
; see _symbols.py).
(variable_declarator
  name: (identifier) @name
  value: [(call_expression function: [(function_expression) (arrow_function)
                                      (parenthesized_expression [(function_expression) (arrow_function)])])
          (parenthesized_expression (call_expression function: [(function_expression) (arrow_function)
                                      (parenthesized_expression [(function_expression) (arrow_function)])]))]) @scope.iife
(assignment_expression
  left: [(identifier) (member_expression) (subscript_expression)] @name
  right: [(call_expression function: [(function_expression) (arrow_function)
                                      (parenthesized_expression [(function_expression) (arrow_function)])])
          (parenthesized_expression (call_expression function: [(function_expression) (arrow_function)
                                      (parenthesized_expression [(function_expression) (arrow_function)])]))]) @scope.iife
