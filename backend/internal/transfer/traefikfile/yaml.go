package traefikfile

import (
	"errors"
	"fmt"
	"time"

	"gopkg.in/yaml.v3"
)

// maxValues bounds the values a YAML file may expand to through aliases
// (a "billion laughs" file expands exponentially).
const maxValues = 1_000_000

// decodeYAML reads YAML into plain maps, slices and scalars with the values
// yaml.v3 gives (paerser decodes with yaml.Unmarshal into a map). It walks
// the node tree itself: yaml.v3's own decoding into maps checks duplicate
// keys pairwise, which takes seconds on a file of ten thousand routers,
// and this walk also bounds alias expansion explicitly.
func decodeYAML(data []byte) (obj, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("not valid YAML: %v", oneLine(err))
	}
	if len(doc.Content) == 0 {
		return obj{}, nil
	}
	w := &yamlWalk{budget: maxValues}
	v, err := w.value(doc.Content[0], 0)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return obj{}, nil
	}
	m, ok := v.(obj)
	if !ok {
		return nil, errors.New("not valid YAML for Traefik: the top level must be a mapping")
	}
	return m, nil
}

type yamlWalk struct{ budget int }

func (w *yamlWalk) value(n *yaml.Node, depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("the file nests deeper than %d levels", maxDepth)
	}
	if w.budget--; w.budget < 0 {
		return nil, fmt.Errorf("the YAML file expands to more than %d values through aliases", maxValues)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return w.value(n.Content[0], depth+1)
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, fmt.Errorf("line %d: unknown alias", n.Line)
		}
		return w.value(n.Alias, depth+1)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := w.value(c, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		return w.mapping(n, depth)
	case yaml.ScalarNode:
		return scalar(n)
	}
	return nil, fmt.Errorf("line %d: unexpected YAML node", n.Line)
}

// mapping reads key/value pairs; merge keys (<<) fill in the keys the
// mapping does not set itself, and a key set twice is an error, as in yaml.v3.
func (w *yamlWalk) mapping(n *yaml.Node, depth int) (any, error) {
	out := make(obj, len(n.Content)/2)
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			merges = append(merges, v)
			continue
		}
		if k.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("not valid YAML for Traefik: line %d: a key must be a single value", k.Line)
		}
		kv, err := scalar(k)
		if err != nil {
			return nil, err
		}
		key := fmt.Sprint(kv)
		if kv == nil {
			key = ""
		}
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("not valid YAML: line %d: mapping key %q already defined", k.Line, key)
		}
		val, err := w.value(v, depth+1)
		if err != nil {
			return nil, err
		}
		out[key] = val
	}
	for _, m := range merges {
		srcs := []*yaml.Node{m}
		if m.Kind == yaml.SequenceNode {
			srcs = m.Content
		}
		for _, s := range srcs {
			v, err := w.value(s, depth+1)
			if err != nil {
				return nil, err
			}
			sm, ok := v.(obj)
			if !ok {
				return nil, fmt.Errorf("not valid YAML: line %d: a merge key needs a mapping", m.Line)
			}
			for k, e := range sm {
				if _, set := out[k]; !set {
					out[k] = e
				}
			}
		}
	}
	return out, nil
}

// scalar resolves a scalar as yaml.v3 does (strings, integers, floats,
// booleans, null, timestamps).
func scalar(n *yaml.Node) (any, error) {
	switch n.ShortTag() {
	case "!!str":
		return n.Value, nil
	case "!!null":
		return nil, nil
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, fmt.Errorf("not valid YAML: line %d: %v", n.Line, oneLine(err))
	}
	switch x := v.(type) {
	case int:
		return int64(x), nil
	case time.Time:
		return x.Format(time.RFC3339Nano), nil
	case []byte:
		return string(x), nil
	}
	return v, nil
}
