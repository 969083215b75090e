; Definitions in Go. A method's @receiver names its type (pointer or value,
; type parameters dropped): `func (s *Stack[T]) Push` -> Stack.Push.
; Patterns listed first win when two match the same node.

(function_declaration name: (identifier) @name) @definition.function

(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @receiver
        (pointer_type (type_identifier) @receiver)
        (generic_type type: (type_identifier) @receiver)
        (pointer_type (generic_type type: (type_identifier) @receiver))
      ]))
  name: (field_identifier) @name) @definition.method

(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name) @definition.type
(type_alias name: (type_identifier) @name) @definition.type

(interface_type (method_elem name: (field_identifier) @name) @definition.method)

(source_file (const_declaration (const_spec name: (identifier) @name) @definition.const))
(source_file (var_declaration (var_spec name: (identifier) @name) @definition.var))
(source_file (var_declaration (var_spec_list (var_spec name: (identifier) @name) @definition.var)))
