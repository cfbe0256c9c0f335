; C++ declarations for sofia (docs/adding-a-language.md). As in C, @name is the outer declarator
; and the `named` hook in cpp.py finds the name, its written qualifiers (`ns::Foo::bar` out of
; line) and its kind: a function in a class body, or qualified, is a method.

(preproc_include) @import
(translation_unit (using_declaration) @import)
(declaration_list (using_declaration) @import)
(translation_unit (namespace_alias_definition) @import)
(declaration_list (namespace_alias_definition) @import)

(namespace_definition name: (_) @name) @definition.namespace

(class_specifier name: (_) @name body: (_)) @definition.class
(struct_specifier name: (_) @name body: (_)) @definition.struct
(union_specifier name: (_) @name body: (_)) @definition.union
(enum_specifier name: (_) @name body: (_)) @definition.enum
(enumerator name: (identifier) @name value: (_)? @value) @definition.case

(function_definition declarator: (_) @name) @definition.function
((expression_statement (call_expression function: (identifier) arguments: (argument_list)) @name) @definition.function
  .
  (compound_statement) @end)

; Declarations outside function bodies: prototypes, constructors, destructors and conversion
; operators declared in a class, globals and constants (a region the grammar could not parse too).
(translation_unit (declaration type: (_)? @type declarator: [(init_declarator value: (_) @value) (_)] @name) @definition.var)
(declaration_list (declaration type: (_)? @type declarator: [(init_declarator value: (_) @value) (_)] @name) @definition.var)
(field_declaration_list (declaration type: (_)? @type declarator: [(init_declarator value: (_) @value) (_)] @name) @definition.var)
(template_declaration (declaration type: (_)? @type declarator: [(init_declarator value: (_) @value) (_)] @name) @definition.var)
(ERROR (declaration type: (_)? @type declarator: [(init_declarator value: (_) @value) (_)] @name) @definition.var)
(preproc_if (declaration type: (_)? @type declarator: [(init_declarator value: (_) @value) (_)] @name) @definition.var)
(preproc_ifdef (declaration type: (_)? @type declarator: [(init_declarator value: (_) @value) (_)] @name) @definition.var)
(preproc_else (declaration type: (_)? @type declarator: [(init_declarator value: (_) @value) (_)] @name) @definition.var)
(preproc_elif (declaration type: (_)? @type declarator: [(init_declarator value: (_) @value) (_)] @name) @definition.var)

(field_declaration type: (_)? @type declarator: (_) @name default_value: (_)? @value) @definition.field

(type_definition declarator: (_) @name) @definition.type
(alias_declaration name: (_) @name) @definition.type

(preproc_def name: (identifier) @name value: (_)? @value) @definition.constant
(preproc_function_def name: (identifier) @name) @definition.macro
