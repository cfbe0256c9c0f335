; Swift declarations for sofia (docs/adding-a-language.md). One grammar node,
; class_declaration, holds classes, actors, structs, enums and extensions: its keyword tells them
; apart. An extension qualifies its members (`Circle.grow`) without being a symbol itself.

(import_declaration) @import

(class_declaration declaration_kind: "class" name: (type_identifier) @name) @definition.class
(class_declaration declaration_kind: "actor" name: (type_identifier) @name) @definition.class
(class_declaration declaration_kind: "struct" name: (type_identifier) @name) @definition.struct
(class_declaration declaration_kind: "enum" name: (type_identifier) @name) @definition.enum
(class_declaration declaration_kind: "extension" name: (user_type (type_identifier) @name)) @scope.extension
(protocol_declaration name: (type_identifier) @name) @definition.interface
(typealias_declaration name: (type_identifier) @name) @definition.type

(source_file (function_declaration) @definition.function)
(statements (function_declaration) @definition.function)
(class_body (function_declaration) @definition.method)
(enum_class_body (function_declaration) @definition.method)
(protocol_body (protocol_function_declaration name: (simple_identifier) @name) @definition.method)
(init_declaration "init" @name) @definition.method
(protocol_body (init_declaration "init" @name) @definition.method)
(deinit_declaration "deinit" @name) @definition.method
(subscript_declaration "subscript" @name) @definition.method

(class_body (property_declaration name: (pattern bound_identifier: (simple_identifier) @name) (type_annotation (_) @type)? value: (_)? @value) @definition.property)
(enum_class_body (property_declaration name: (pattern bound_identifier: (simple_identifier) @name) (type_annotation (_) @type)?) @definition.property)
(protocol_body (protocol_property_declaration name: (pattern bound_identifier: (simple_identifier) @name) (type_annotation (_) @type)?) @definition.property)
(source_file (property_declaration name: (pattern bound_identifier: (simple_identifier) @name) (type_annotation (_) @type)? value: (_)? @value) @definition.var)
(enum_entry name: (simple_identifier) @name) @definition.case
