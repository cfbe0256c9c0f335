; Scala typed bindings for refs' receivers, run only by refs (Spec.binding_query): vals and vars
; (`val x: Foo`, `val x = new Foo`), parameters of defs, classes and lambdas, typed patterns in
; cases and generators.
(val_definition pattern: (identifier) @binding.name type: (_)? @binding.type value: (_)? @binding.value) @binding
(var_definition pattern: (identifier) @binding.name type: (_)? @binding.type value: (_)? @binding.value) @binding
(val_declaration name: (identifier) @binding.name type: (_) @binding.type) @binding
(var_declaration name: (identifier) @binding.name type: (_) @binding.type) @binding
(parameter name: (identifier) @binding.name type: (_)? @binding.type) @binding
(class_parameter name: (identifier) @binding.name type: (_)? @binding.type) @binding
(binding name: (identifier) @binding.name type: (_)? @binding.type) @binding
(typed_pattern pattern: (identifier) @binding.name type: (_) @binding.type) @binding
