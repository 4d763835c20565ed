package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/dlclark/regexp2"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// What this program sends and receives is checked against the processes' JSON Schemas
// (schemas/messages/<process>.json, written by `npm run schemas` from the zod schemas). A message
// is found the way another backend would find it: by workflow type and message name in the
// file's x-payflows index, never by guessing a $defs name.

type messageIndex struct {
	ID        string `json:"$id"`
	XPayflows struct {
		Workflows map[string]struct {
			Input   string `json:"input"`
			Result  string `json:"result"`
			Queries map[string]struct {
				Answer string `json:"answer"`
			} `json:"queries"`
			Updates map[string]struct {
				Args   []string `json:"args"`
				Answer string   `json:"answer"`
			} `json:"updates"`
			Failures map[string]struct {
				Details string `json:"details"`
			} `json:"failures"`
		} `json:"workflows"`
	} `json:"x-payflows"`
}

type schemas struct {
	compiler *jsonschema.Compiler
	indexes  map[string]messageIndex // by process file name (wallet, checkout, …)
	// What was checked, in order, for the report: "wallet.json#/$defs/OpenWalletInput sent".
	checked []string
}

// JSON Schema patterns are ECMA-262 regular expressions (zod writes JavaScript's): Go's RE2 lacks
// some of their syntax, so they run on an ECMAScript engine.
type ecmaRegexp regexp2.Regexp

func (re *ecmaRegexp) MatchString(s string) bool {
	ok, err := (*regexp2.Regexp)(re).MatchString(s)
	return err == nil && ok
}
func (re *ecmaRegexp) String() string { return (*regexp2.Regexp)(re).String() }

func loadSchemas(dir string, processes ...string) (*schemas, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseRegexpEngine(func(s string) (jsonschema.Regexp, error) {
		re, err := regexp2.Compile(s, regexp2.ECMAScript)
		return (*ecmaRegexp)(re), err
	})
	out := &schemas{compiler: c, indexes: map[string]messageIndex{}}
	for _, p := range processes {
		file := filepath.Join(dir, p+".json")
		raw, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("the message schemas of %s: %w (PAYFLOWS_SCHEMAS_DIR names the folder of schemas/messages)", p, err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			return nil, fmt.Errorf("%s is not JSON: %w", file, err)
		}
		var index messageIndex
		if err := json.Unmarshal(raw, &index); err != nil || index.ID == "" {
			return nil, fmt.Errorf("%s has no $id and x-payflows index: %v", file, err)
		}
		if err := c.AddResource(index.ID, doc); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		out.indexes[p] = index
	}
	return out, nil
}

// ref is a "#/$defs/Name" of the process file; an empty one means the index lacks the message.
func (s *schemas) check(process, what, ref string, value any) error {
	index, ok := s.indexes[process]
	if !ok || ref == "" {
		return fmt.Errorf("schemas/messages/%s.json names no schema for %s: regenerate the schemas (npm run schemas) or update this program", process, what)
	}
	if !strings.HasPrefix(ref, "#") {
		return fmt.Errorf("schemas/messages/%s.json: %s is %q, not a reference into the file", process, what, ref)
	}
	sch, err := s.compiler.Compile(index.ID + ref)
	if err != nil {
		return fmt.Errorf("schemas/messages/%s.json%s (%s) does not compile: %w", process, ref, what, err)
	}
	// Through JSON, so that the value is what goes on the wire (numbers kept exact).
	raw, err := json.Marshal(value)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	if err := sch.Validate(inst); err != nil {
		consequence := "not used"
		if strings.HasSuffix(what, "(sent)") {
			consequence = "nothing was sent"
		}
		return fmt.Errorf("%s does not match schemas/messages/%s.json%s (%s):\n%s\nthe value: %s", what, process, ref, consequence, err, raw)
	}
	s.checked = append(s.checked, fmt.Sprintf("%s.json%s %s", process, ref, what))
	return nil
}

func (s *schemas) input(process, workflowType string, v any) error {
	return s.check(process, workflowType+" input (sent)", s.indexes[process].XPayflows.Workflows[workflowType].Input, v)
}

func (s *schemas) result(process, workflowType string, v any) error {
	return s.check(process, workflowType+" result (received)", s.indexes[process].XPayflows.Workflows[workflowType].Result, v)
}

func (s *schemas) queryAnswer(process, workflowType, query string, v any) error {
	q := s.indexes[process].XPayflows.Workflows[workflowType].Queries[query]
	return s.check(process, fmt.Sprintf("%s query %q answer (received)", workflowType, query), q.Answer, v)
}

func (s *schemas) updateAnswer(process, workflowType, update string, v any) error {
	u := s.indexes[process].XPayflows.Workflows[workflowType].Updates[update]
	return s.check(process, fmt.Sprintf("%s update %q answer (received)", workflowType, update), u.Answer, v)
}

func (s *schemas) failureDetails(process, workflowType, failureType string, v any) error {
	f := s.indexes[process].XPayflows.Workflows[workflowType].Failures[failureType]
	return s.check(process, fmt.Sprintf("%s failure %s details (received)", workflowType, failureType), f.Details, v)
}
