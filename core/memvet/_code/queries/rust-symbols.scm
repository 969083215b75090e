; Definitions in Rust. `impl Type` blocks are scopes named after Type and
; `impl Trait for Type` blocks after `<Type as Trait>`, whatever the type
; (a path, a reference, a primitive, a slice, a tuple...): the scope's name
; is built in code (_symbols._rust_impl); a trait impl is also a symbol of
; its own, kind `impl` (_symbols._collect). Leading #[...] attributes are
; added to spans in code.

(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function
(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(trait_item name: (type_identifier) @name) @definition.trait
(type_item name: (type_identifier) @name) @definition.type
(const_item name: (identifier) @name) @definition.const
(static_item name: (identifier) @name) @definition.static
(mod_item name: (identifier) @name) @definition.module
(macro_definition name: (identifier) @name) @definition.macro

(impl_item type: (_) @name) @scope.impl
