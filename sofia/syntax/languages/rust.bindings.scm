; Rust's typed bindings for refs' receivers (Spec.binding_query: run only when refs reads a file):
; `let` (typed, or made by a struct expression), parameters and closure parameters.
(let_declaration pattern: [(identifier) @binding.name (mut_pattern (identifier) @binding.name)] type: (_)? @binding.type value: (_)? @binding.value) @binding
(parameter pattern: [(identifier) @binding.name (mut_pattern (identifier) @binding.name)] type: (_) @binding.type) @binding
(closure_parameters [(identifier) @binding.name (parameter pattern: (identifier) @binding.name type: (_)? @binding.type)]) @binding
