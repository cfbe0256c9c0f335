; Typed bindings for refs' receivers (read only by refs: Spec.binding_query): locals, parameters,
; fields and range-for variables (with the range, whose elements an `auto` one takes), by the shapes their declarators take (`Foo *p`, `Foo &r`,
; `auto f = Foo()`, `const Foo &o`).

(declaration type: (_) @binding.type declarator: [
  (identifier) @binding.name
  (pointer_declarator declarator: (identifier) @binding.name)
  (reference_declarator (identifier) @binding.name)
  (array_declarator declarator: (identifier) @binding.name)
  (init_declarator declarator: (identifier) @binding.name value: (_) @binding.value)
  (init_declarator declarator: (pointer_declarator declarator: (identifier) @binding.name) value: (_) @binding.value)
  (init_declarator declarator: (reference_declarator (identifier) @binding.name) value: (_) @binding.value)
]) @binding

(parameter_declaration type: (_) @binding.type declarator: [
  (identifier) @binding.name
  (pointer_declarator declarator: (identifier) @binding.name)
  (reference_declarator (identifier) @binding.name)
  (array_declarator declarator: (identifier) @binding.name)
]) @binding

(optional_parameter_declaration type: (_) @binding.type declarator: [
  (identifier) @binding.name
  (pointer_declarator declarator: (identifier) @binding.name)
  (reference_declarator (identifier) @binding.name)
]) @binding

(for_range_loop type: (_) @binding.type declarator: [
  (identifier) @binding.name
  (reference_declarator (identifier) @binding.name)
  (pointer_declarator declarator: (identifier) @binding.name)
] right: (_) @binding.range) @binding

(field_declaration type: (_) @binding.type declarator: [
  (field_identifier) @binding.name
  (pointer_declarator declarator: (field_identifier) @binding.name)
  (reference_declarator (field_identifier) @binding.name)
  (array_declarator declarator: (field_identifier) @binding.name)
]) @binding

(lambda_expression declarator: (abstract_function_declarator parameters: (parameter_list
  (parameter_declaration type: (_) @binding.type declarator: [(identifier) @binding.name (reference_declarator (identifier) @binding.name) (pointer_declarator declarator: (identifier) @binding.name)])))) @binding
