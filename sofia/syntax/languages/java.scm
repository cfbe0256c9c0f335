; Java declarations for sofia (docs/adding-a-language.md): @definition.<kind> on the declaration,
; @name on its name; @package and @import for the summary header.

(package_declaration [(identifier) (scoped_identifier)] @name) @package
(import_declaration) @import

(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(record_declaration parameters: (formal_parameters (formal_parameter type: (_) @type name: (identifier) @name) @definition.field))
(interface_declaration name: (identifier) @name) @definition.interface
(annotation_type_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum

(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(compact_constructor_declaration name: (identifier) @name) @definition.method
(annotation_type_element_declaration name: (identifier) @name) @definition.method

(field_declaration type: (_) @type declarator: (variable_declarator name: (identifier) @name value: (_)? @value)) @definition.field
(constant_declaration type: (_) @type declarator: (variable_declarator name: (identifier) @name value: (_)? @value)) @definition.constant
(enum_constant name: (identifier) @name) @definition.case

; Typed bindings for refs' receivers: locals, parameters, fields, resources and catch parameters.
(local_variable_declaration type: (_) @binding.type declarator: (variable_declarator name: (identifier) @binding.name value: (_)? @binding.value)) @binding
(formal_parameter type: (_) @binding.type name: (identifier) @binding.name) @binding
(spread_parameter (_) @binding.type (variable_declarator name: (identifier) @binding.name)) @binding
(catch_formal_parameter (catch_type (_) @binding.type) name: (identifier) @binding.name) @binding
(resource type: (_) @binding.type name: (identifier) @binding.name value: (_)? @binding.value) @binding
(enhanced_for_statement type: (_) @binding.type name: (identifier) @binding.name) @binding
(lambda_expression parameters: (identifier) @binding.name) @binding
(inferred_parameters (identifier) @binding.name) @binding
(field_declaration type: (_) @binding.type declarator: (variable_declarator name: (identifier) @binding.name value: (_)? @binding.value)) @binding
