; Swift's typed bindings for refs' receivers (docs/adding-a-language.md): a parameter's or a
; property's declared type, else the value it starts with.
(parameter name: (simple_identifier) @binding.name [(user_type) (optional_type) (array_type) (dictionary_type)] @binding.type) @binding
(property_declaration name: (pattern bound_identifier: (simple_identifier) @binding.name) (type_annotation (_) @binding.type)? value: (_)? @binding.value) @binding
; `if let v = s`, `guard let t = s as? Store`: the value bound (each binding of a list its own match).
(if_statement bound_identifier: (simple_identifier) @binding.name . (_) @binding.value) @binding
(guard_statement bound_identifier: (simple_identifier) @binding.name . (_) @binding.value) @binding
