; C declarations for sofia (docs/adding-a-language.md). A declarator nests its name
; (`*copy_process(...)`, `(*getfn(void))(int)`): @name is the outer declarator and the `named`
; hook in c.py finds the identifier and whether it declares a function or a variable.

(preproc_include) @import

(function_definition declarator: (_) @name) @definition.function

; A macro that expands to a function: `SYSCALL_DEFINE3(open, ...) { ... }` reads as a call
; statement followed by a block; the block is the definition's @end (the hook keeps file level).
((expression_statement (call_expression function: (identifier) arguments: (argument_list)) @name) @definition.function
  .
  (compound_statement) @end)

; File-level declarations: prototypes, globals and constants, also in conditional blocks, in an
; `extern "C"` body and in a region the grammar could not parse (locals are not matched).
(translation_unit (declaration type: (_)? @type declarator: [(init_declarator value: (_) @value) (_)] @name) @definition.var)
(ERROR (declaration type: (_)? @type declarator: [(init_declarator value: (_) @value) (_)] @name) @definition.var)
(declaration_list (declaration type: (_)? @type declarator: [(init_declarator value: (_) @value) (_)] @name) @definition.var)
(preproc_if (declaration type: (_)? @type declarator: [(init_declarator value: (_) @value) (_)] @name) @definition.var)
(preproc_ifdef (declaration type: (_)? @type declarator: [(init_declarator value: (_) @value) (_)] @name) @definition.var)
(preproc_else (declaration type: (_)? @type declarator: [(init_declarator value: (_) @value) (_)] @name) @definition.var)
(preproc_elif (declaration type: (_)? @type declarator: [(init_declarator value: (_) @value) (_)] @name) @definition.var)
(preproc_elifdef (declaration type: (_)? @type declarator: [(init_declarator value: (_) @value) (_)] @name) @definition.var)

(type_definition declarator: (_) @name) @definition.type
(struct_specifier name: (_) @name body: (_)) @definition.struct
(union_specifier name: (_) @name body: (_)) @definition.union
(enum_specifier name: (_) @name body: (_)) @definition.enum
(enumerator name: (identifier) @name value: (_)? @value) @definition.case
(field_declaration type: (_) @type declarator: (_) @name) @definition.field

; An object-like #define is a constant (a symbol too: Spec.symbol_rows), a function-like one a macro.
(preproc_def name: (identifier) @name value: (_)? @value) @definition.constant
(preproc_function_def name: (identifier) @name) @definition.macro
