module github.com/hookshim/hookshim

go 1.26.0

require (
	github.com/agnivade/levenshtein v1.2.1
	github.com/expr-lang/expr v1.17.8
	github.com/mattn/go-shellwords v1.0.16
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/rogpeppe/go-internal v1.16.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/stretchr/testify v1.12.1
	github.com/tailscale/hujson v0.0.0-20260302212456-ecc657c15afd
	github.com/tidwall/gjson v1.20.0
	github.com/tidwall/sjson v1.2.5
	mvdan.cc/sh/v3 v3.14.1
)

require (
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/text v0.14.0 // indirect
	golang.org/x/tools v0.38.0 // indirect
)
