; Kotlin typed bindings for refs' receivers, run only by refs (Spec.binding_query): properties
; and locals, parameters, loop and catch variables (`val x = Foo()` is typed by its value).
(property_declaration (variable_declaration (identifier) @binding.name . (_)? @binding.type)
  ("=" . (_) @binding.value)?) @binding
(parameter (identifier) @binding.name . (_) @binding.type) @binding
(class_parameter (identifier) @binding.name . (_) @binding.type) @binding
(for_statement (variable_declaration (identifier) @binding.name . (_)? @binding.type)) @binding
(catch_block (identifier) @binding.name . (_) @binding.type) @binding
(lambda_parameters (variable_declaration (identifier) @binding.name . (_)? @binding.type)) @binding
