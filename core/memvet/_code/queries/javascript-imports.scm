; Every import in a JavaScript file; @module is the module specifier's text.

(import_statement source: (string (string_fragment) @module))
(export_statement source: (string (string_fragment) @module))

; require("x") and dynamic import("x") with a literal first argument.
((call_expression
   function: (identifier) @_fn
   arguments: (arguments . (string (string_fragment) @module)))
 (#eq? @_fn "require"))
(call_expression
  function: (import)
  arguments: (arguments . (string (string_fragment) @module)))
