; Ruby's bindings for refs (Spec.binding_query: run only when refs reads a file): locals (typed
; when made by `Foo.new`), method, block and lambda parameters.
(assignment left: (identifier) @binding.name right: (_) @binding.value) @binding
(method_parameters [(identifier) @binding.name (optional_parameter name: (identifier) @binding.name) (keyword_parameter name: (identifier) @binding.name) (splat_parameter name: (identifier) @binding.name) (hash_splat_parameter name: (identifier) @binding.name) (block_parameter name: (identifier) @binding.name)]) @binding
(block_parameters [(identifier) @binding.name (optional_parameter name: (identifier) @binding.name) (keyword_parameter name: (identifier) @binding.name) (splat_parameter name: (identifier) @binding.name)]) @binding
(lambda_parameters (identifier) @binding.name) @binding
; An instance variable a method assigns (`@repo = Repo.new`): a field of the class (`Uses.fields`).
(assignment left: (instance_variable) @binding.name right: (_) @binding.value) @binding
(operator_assignment left: (instance_variable) @binding.name right: (_) @binding.value) @binding
