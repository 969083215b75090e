; Definitions in Python.
; @definition.<kind> is the definition node, @name its name. A function whose
; enclosing definition is a class becomes a "method" (decided in code).
; Decorators are added to the span in code (the decorated_definition parent).

(function_definition name: (identifier) @name) @definition.function

(class_definition name: (identifier) @name) @definition.class

; Module-level assignments to a plain name: `TIMEOUT = 30`, `x: int = 1`.
(module
  (expression_statement
    (assignment left: (identifier) @name) @definition.variable))

; Class attributes: `timeout = 30`, `name: str = ""` in a class body (one
; that rebinds a method of its class, `f = staticmethod(f)`, is left out in
; code).
(class_definition
  body: (block
    (expression_statement
      (assignment left: (identifier) @name) @definition.field)))
