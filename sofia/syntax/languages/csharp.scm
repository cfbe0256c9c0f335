; C# declarations for sofia (docs/adding-a-language.md): @definition.<kind> on the declaration,
; @name on its name; @package and @import for the summary header (refs' typed bindings:
; csharp.bindings.scm).
; Attribute lists are children of the declaration they decorate, so its node already starts there.

(namespace_declaration name: (_) @name) @package
(file_scoped_namespace_declaration name: (_) @name) @package
(using_directive) @import

(class_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.struct
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration "struct" name: (identifier) @name) @definition.struct
((record_declaration "struct"? @_struct name: (identifier) @name) @definition.class
  (#not-eq? @_struct "struct"))
(delegate_declaration name: (identifier) @name) @definition.type

(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(destructor_declaration name: (identifier) @name) @definition.method
(operator_declaration "operator" @name) @definition.method
(conversion_operator_declaration "operator" @name) @definition.method
(indexer_declaration "this" @name) @definition.method
(local_function_statement name: (identifier) @name) @definition.function

(property_declaration type: (_) @type name: (identifier) @name value: (_)? @value) @definition.property
(event_declaration type: (_) @type name: (identifier) @name) @definition.property
(event_field_declaration
  (variable_declaration type: (_) @type (variable_declarator name: (identifier) @name))) @definition.field
(field_declaration (modifier "const")
  (variable_declaration type: (_) @type
    (variable_declarator name: (identifier) @name ("=" (_) @value)?))) @definition.constant
((field_declaration (modifier "const")? @_const
  (variable_declaration type: (_) @type
    (variable_declarator name: (identifier) @name ("=" (_) @value)?))) @definition.field
  (#not-eq? @_const "const"))
(record_declaration
  (parameter_list (parameter type: (_) @type name: (identifier) @name) @definition.field))
(enum_member_declaration name: (identifier) @name value: (_)? @value) @definition.case
