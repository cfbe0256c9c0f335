; Rust declarations for sofia (docs/adding-a-language.md): @definition.<kind> on the item, @name on
; its name; an `impl` block is a @scope.impl named by its type (`rust.named` looks through generics, `&`
; and paths), so its members are `Type::member`; @implements is the trait an `impl Trait for Type` implements.

(use_declaration) @import
(extern_crate_declaration) @import

(mod_item name: (identifier) @name) @definition.module
(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.union
(enum_item name: (type_identifier) @name) @definition.enum
(trait_item name: (type_identifier) @name) @definition.trait
(type_item name: (type_identifier) @name type: (_) @type) @definition.type
(associated_type name: (type_identifier) @name) @definition.type
(macro_definition name: (identifier) @name) @definition.macro

(impl_item trait: (_)? @implements type: (_) @name) @scope.impl

; functions: members of an impl or a trait are methods, every other fn (free, in a module, in an
; `extern` block, inside another function's body) a function
(impl_item body: (declaration_list (function_item name: (identifier) @name) @definition.method))
(trait_item body: (declaration_list (function_item name: (identifier) @name) @definition.method))
(trait_item body: (declaration_list (function_signature_item name: (identifier) @name) @definition.method))
(source_file (function_item name: (identifier) @name) @definition.function)
(mod_item body: (declaration_list (function_item name: (identifier) @name) @definition.function))
(block (function_item name: (identifier) @name) @definition.function)
(foreign_mod_item body: (declaration_list (function_signature_item name: (identifier) @name) @definition.function))

(const_item name: (identifier) @name type: (_) @type value: (_)? @value) @definition.constant
(static_item name: (identifier) @name type: (_) @type value: (_)? @value) @definition.constant

(struct_item body: (field_declaration_list (field_declaration name: (field_identifier) @name type: (_) @type) @definition.field))
(union_item body: (field_declaration_list (field_declaration name: (field_identifier) @name type: (_) @type) @definition.field))
(enum_variant name: (identifier) @name value: (_)? @value) @definition.case
