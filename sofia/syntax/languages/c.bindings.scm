; Typed bindings for refs' receivers (read only by refs: Spec.binding_query): locals, parameters
; and fields, by the shapes their declarators take (`struct foo *p`, `int n = 0`, `char **argv`).

(declaration type: (_) @binding.type declarator: [
  (identifier) @binding.name
  (pointer_declarator declarator: (identifier) @binding.name)
  (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @binding.name))
  (array_declarator declarator: (identifier) @binding.name)
  (init_declarator declarator: (identifier) @binding.name value: (_) @binding.value)
  (init_declarator declarator: (pointer_declarator declarator: (identifier) @binding.name) value: (_) @binding.value)
]) @binding

(parameter_declaration type: (_) @binding.type declarator: [
  (identifier) @binding.name
  (pointer_declarator declarator: (identifier) @binding.name)
  (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @binding.name))
  (array_declarator declarator: (identifier) @binding.name)
]) @binding

(field_declaration type: (_) @binding.type declarator: [
  (field_identifier) @binding.name
  (pointer_declarator declarator: (field_identifier) @binding.name)
  (array_declarator declarator: (field_identifier) @binding.name)
]) @binding
