; Every import in a Go file; @module is the quoted import path.

(import_spec path: (_) @module)
