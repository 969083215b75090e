; Every import in a Java file; @module is the imported name (a trailing .*
; is not part of it).

(import_declaration [(scoped_identifier) (identifier)] @module)
