; Kotlin declarations for sofia (docs/adding-a-language.md): @definition.<kind> on the declaration,
; @name on its name; @package and @import for the summary header (refs' typed bindings:
; kotlin.bindings.scm).
; Annotations sit in the declaration's `modifiers`, so its node already starts at them.

(package_header (qualified_identifier) @name) @package
(import) @import

(class_declaration "interface" name: (identifier) @name) @definition.interface
(class_declaration (modifiers (class_modifier "enum")) name: (identifier) @name) @definition.enum
((class_declaration (modifiers (class_modifier "enum" @_enum)?)? "interface"? @_interface
  name: (identifier) @name) @definition.class
  (#not-eq? @_interface "interface") (#not-eq? @_enum "enum"))
(object_declaration name: (identifier) @name) @definition.class
; A companion object is a class of its own, its members its (`Cart.Factory.empty`); unnamed, it is
; `Companion`, as Kotlin names it (kotlin.py's `named` hook names it by its `object` keyword).
(companion_object name: (identifier) @name) @definition.class
(companion_object "object" @name !name) @definition.class
(type_alias type: (identifier) @name) @definition.type

; The grammar reads an annotated top-level class with a soft-keyword modifier and no constructor
; parameters (`@Target(CLASS)` then `annotation class Marker`, `@Keep` then `enum class Mode { A }`)
; as an annotated expression: the declaration is its outermost annotation's, and kotlin.py's `named`
; hook finds the class (`enum class Mode`, `annotation class Marker`) below every annotation, or
; tells the match declares nothing. One pattern, where one per depth of annotations cost the query
; 147 ms of its 228 ms compile, paid on every CLI call's first Kotlin parse.
(source_file (annotated_expression (_) @name .) @definition.class)

; A function in a class, object or interface body is a method; elsewhere (a file, a block, a
; lambda) a function.
(class_body (function_declaration name: (identifier) @name) @definition.method)
(enum_class_body (function_declaration name: (identifier) @name) @definition.method)
(source_file (function_declaration name: (identifier) @name) @definition.function)
(block (function_declaration name: (identifier) @name) @definition.function)
(lambda_literal (function_declaration name: (identifier) @name) @definition.function)
(secondary_constructor "constructor" @name) @definition.method

; Properties of a file, a class or an object (a local `val` is not one); `const val` is a constant.
(source_file (property_declaration (modifiers (property_modifier "const"))
  (variable_declaration (identifier) @name . (_)? @type) ("=" . (_) @value)?) @definition.constant)
(class_body (property_declaration (modifiers (property_modifier "const"))
  (variable_declaration (identifier) @name . (_)? @type) ("=" . (_) @value)?) @definition.constant)
(source_file ((property_declaration (modifiers (property_modifier "const" @_const)?)?
  [(variable_declaration (identifier) @name . (_)? @type)
   (multi_variable_declaration (variable_declaration (identifier) @name))] ("=" . (_) @value)?)
  @definition.property (#not-eq? @_const "const")))
(class_body ((property_declaration (modifiers (property_modifier "const" @_const)?)?
  [(variable_declaration (identifier) @name . (_)? @type)
   (multi_variable_declaration (variable_declaration (identifier) @name))] ("=" . (_) @value)?)
  @definition.property (#not-eq? @_const "const")))
(enum_class_body (property_declaration
  (variable_declaration (identifier) @name . (_)? @type) ("=" . (_) @value)?) @definition.property)
(class_parameter ["val" "var"] (identifier) @name . (_) @type) @definition.field
(enum_entry (identifier) @name) @definition.case
