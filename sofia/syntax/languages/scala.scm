; Scala declarations for sofia (docs/adding-a-language.md): @definition.<kind> on the declaration,
; @name on its name; @package and @import for the summary header (refs' typed bindings:
; scala.bindings.scm).
; Annotations are the declaration's own first children, so its node already starts at them.

(package_clause name: (package_identifier) @name) @package
(import_declaration) @import

(class_definition name: (_) @name) @definition.class
(object_definition name: (_) @name) @definition.class
(package_object name: (identifier) @name) @definition.class
(trait_definition name: (_) @name) @definition.trait
(enum_definition name: (identifier) @name) @definition.enum
(type_definition name: (type_identifier) @name) @definition.type

; A def in a class, object, trait or enum body is a method, anywhere else (a file, a package, a
; block) a function: scala.py's `named` hook tells them apart by the body holding it.
(function_definition name: (_) @name) @definition.method
(function_declaration name: (_) @name) @definition.method

; Vals and vars of a body or a file (a local one is not captured), abstract ones too; a pattern
; declares each name it binds.
(template_body (val_definition pattern: (identifier) @name type: (_)? @type value: (_)? @value) @definition.property)
(template_body (var_definition pattern: (identifier) @name type: (_)? @type value: (_)? @value) @definition.property)
(template_body (val_definition pattern: [(identifiers (identifier) @name) (tuple_pattern (identifier) @name)]) @definition.property)
(template_body (var_definition pattern: [(identifiers (identifier) @name) (tuple_pattern (identifier) @name)]) @definition.property)
(template_body (val_declaration name: (identifier) @name type: (_) @type) @definition.property)
(template_body (var_declaration name: (identifier) @name type: (_) @type) @definition.property)
(compilation_unit (val_definition pattern: (identifier) @name type: (_)? @type value: (_)? @value) @definition.property)
(compilation_unit (var_definition pattern: (identifier) @name type: (_)? @type value: (_)? @value) @definition.property)

; A primary constructor's `val`/`var` parameters are fields, and every parameter of a case class.
(class_parameter ["val" "var"] name: (identifier) @name type: (_)? @type) @definition.field
(class_definition "case" class_parameters: (class_parameters
  (class_parameter name: (identifier) @name type: (_)? @type) @definition.field))

(simple_enum_case name: (identifier) @name) @definition.case
(full_enum_case name: (identifier) @name) @definition.case
