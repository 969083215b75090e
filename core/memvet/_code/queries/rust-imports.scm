; Every import in a Rust file. @use is a use declaration's argument (its
; lists are expanded in code); @module an extern crate's name.

(use_declaration argument: (_) @use)
(extern_crate_declaration name: (identifier) @module)
