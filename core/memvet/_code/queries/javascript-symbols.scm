; Definitions in JavaScript (and JSX).
; Patterns listed first win when two match the same node.

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(class_declaration name: (identifier) @name) @definition.class
(method_definition name: [(property_identifier) (private_property_identifier) (string) (number)] @name) @definition.method

; const f = () => ..., const f = function () {...}, const C = class {...}
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
(variable_declarator
  name: (identifier) @name
  value: (class)) @definition.class

; Class fields holding a function: `handle = () => {...}`.
(field_definition
  property: (property_identifier) @name
  value: [(arrow_function) (function_expression)]) @definition.method

; Object-literal members holding a function: `{ put: function () {} }`.
(pair
  key: [(property_identifier) (string) (number)] @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method

; Top-level bindings of any other value: `const api = {...}`, `let n = 1`.
(program (lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable))
(program (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable))
(program (export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @name) @definition.variable)))
(program (export_statement declaration: (variable_declaration (variable_declarator name: (identifier) @name) @definition.variable)))

; Nested object literals name a scope: `{ users: { get() {} } }` -> users.get
(pair key: [(property_identifier) (string)] @name value: (object)) @scope.object
