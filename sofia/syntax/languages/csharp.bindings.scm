; C# typed bindings for refs' receivers, run only by refs (Spec.binding_query): locals,
; parameters, fields, properties, loop, catch and pattern variables (`var x = new Foo()` is
; typed by its value).
(local_declaration_statement
  (variable_declaration type: (_) @binding.type
    (variable_declarator name: (identifier) @binding.name ("=" (_) @binding.value)?))) @binding
(using_statement
  (variable_declaration type: (_) @binding.type
    (variable_declarator name: (identifier) @binding.name ("=" (_) @binding.value)?))) @binding
(field_declaration
  (variable_declaration type: (_) @binding.type
    (variable_declarator name: (identifier) @binding.name ("=" (_) @binding.value)?))) @binding
(parameter type: (_) @binding.type name: (identifier) @binding.name) @binding
(property_declaration type: (_) @binding.type name: (identifier) @binding.name) @binding
(foreach_statement type: (_) @binding.type left: (identifier) @binding.name) @binding
(catch_declaration type: (_) @binding.type name: (identifier) @binding.name) @binding
(declaration_pattern type: (_) @binding.type name: (identifier) @binding.name) @binding
(lambda_expression parameters: (implicit_parameter) @binding.name) @binding
