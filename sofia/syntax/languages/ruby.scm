; Ruby declarations for sofia (docs/adding-a-language.md): @definition.<kind> on the declaration,
; @name on its name. `class Foo::Bar` is split on `::` into its owners; a `def` outside any class
; or module is a function (`ruby.named`); `attr_*` calls declare properties; `require` and its kin
; are the imports.

(call
  !receiver
  method: (identifier) @_import
  (#any-of? @_import "require" "require_relative" "load" "autoload")) @import

(class name: [(constant) (scope_resolution)] @name) @definition.class
(module name: [(constant) (scope_resolution)] @name) @definition.module
(method name: (_) @name) @definition.method
(singleton_method name: (_) @name) @definition.method

(call
  !receiver
  method: (identifier) @_attr
  (#any-of? @_attr "attr_reader" "attr_writer" "attr_accessor" "attr")
  arguments: (argument_list [(simple_symbol) (string)] @name)) @definition.property

(assignment left: (constant) @name right: (_) @value) @definition.constant
