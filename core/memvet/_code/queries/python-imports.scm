; Every import in a Python file; @module is the imported module's name node.

(import_statement name: (dotted_name) @module)
(import_statement name: (aliased_import name: (dotted_name) @module))
(import_from_statement module_name: (dotted_name) @module)
(import_from_statement module_name: (relative_import) @module)
(future_import_statement "__future__" @module)

; __import__("x") and importlib.import_module("x") with a literal name.
((call
   function: (identifier) @_fn
   arguments: (argument_list . (string (string_content) @module)))
 (#eq? @_fn "__import__"))
((call
   function: (attribute
     object: (identifier) @_obj
     attribute: (identifier) @_fn)
   arguments: (argument_list . (string (string_content) @module)))
 (#eq? @_obj "importlib")
 (#eq? @_fn "import_module"))
