; Definitions in Java. Annotations live in the declaration's modifiers, so
; they are inside the span already. Methods and constructors are named with
; their erased parameter types in _symbols.py (see _java.py).

(class_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration name: (identifier) @name) @definition.record
(annotation_type_declaration name: (identifier) @name) @definition.annotation
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
(compact_constructor_declaration name: (identifier) @name) @definition.constructor
; The elements of an annotation type: `@interface Ann { String value(); }` -> Ann.value().
(annotation_type_element_declaration name: (identifier) @name) @definition.method
; Every declarator of `int a, b = 2;` is a field; each one's span is the
; whole declaration (they share its modifiers and type).
(field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.field
(constant_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.field

; Enum constants are symbols; one with a body is the scope of its methods:
; `enum Op { PLUS { int apply(...) } }` -> Op.PLUS.apply(...).
(enum_constant name: (identifier) @name) @definition.const

; An anonymous class is a scope named after its type, inside the method,
; field or class around it: Outer.start().<anonymous Runnable>.run().
(object_creation_expression type: (_) @name (class_body)) @scope.anonymous
