package main

import "testing"

func TestAllowed(t *testing.T) {
	allow := map[string]bool{"MIT": true, "Apache-2.0": true, "Unicode-3.0": true}
	for expr, want := range map[string]bool{
		"MIT":                                    true,
		"MIT OR GPL-3.0":                         true,
		"MIT AND GPL-3.0":                        false,
		"MIT/Apache-2.0":                         true,
		"(MIT OR Apache-2.0) AND Unicode-3.0":    true,
		"(MIT OR GPL-3.0) AND (GPL-2.0 OR LGPL)": false,
		"Apache-2.0 WITH LLVM-exception":         true,
		"GPL-2.0 WITH Classpath-exception-2.0":   false,
		"":                                       false,
		"MIT OR":                                 false,
		"(MIT":                                   false,
		"unknown":                                false,
	} {
		if got := allowed(expr, allow); got != want {
			t.Errorf("allowed(%q) = %v, want %v", expr, got, want)
		}
	}
}

func TestClassify(t *testing.T) {
	for text, want := range map[string]string{
		"Permission is hereby granted, free of charge, to any person":                      "MIT",
		"Apache License\n   Version 2.0, January 2004":                                     "Apache-2.0",
		"Redistribution and use in source and binary forms ... Neither the name of Google": "BSD-3-Clause",
		"Redistribution and use in source and binary forms, with or without\nmodification": "BSD-2-Clause",
		"GNU GENERAL PUBLIC LICENSE Version 3":                                             "GPL-family",
		"Creative Commons Attribution 4.0 International Public License":                    "CC-BY-4.0",
		"All rights reserved.": "",
	} {
		if got := classify(text); got != want {
			t.Errorf("classify(%.30q) = %q, want %q", text, got, want)
		}
	}
}
