package traefikfile

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

type token struct {
	kind byte // 'i' identifier, 's' string, or the punctuation itself: ( ) , & | !
	text string
	at   int
}

func (t token) String() string {
	switch t.kind {
	case 'i':
		return fmt.Sprintf("%q at offset %d", t.text, t.at)
	case 's':
		return fmt.Sprintf("string %q at offset %d", t.text, t.at)
	case '&':
		return fmt.Sprintf("&& at offset %d", t.at)
	case '|':
		return fmt.Sprintf("|| at offset %d", t.at)
	}
	return fmt.Sprintf("%q at offset %d", string(t.kind), t.at)
}

type ruleParser struct {
	src  string
	toks []token
	pos  int
}

// lex splits the rule into tokens.
func (p *ruleParser) lex() error {
	s := p.src
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '(' || c == ')' || c == ',' || c == '!':
			p.toks = append(p.toks, token{kind: c, at: i})
			i++
		case c == '&' || c == '|':
			if i+1 >= len(s) || s[i+1] != c {
				return fmt.Errorf("lone %q at offset %d (the operators are && and ||)", c, i)
			}
			p.toks = append(p.toks, token{kind: c, at: i})
			i += 2
		case c == '`':
			end := strings.IndexByte(s[i+1:], '`')
			if end < 0 {
				return fmt.Errorf("unterminated backtick string at offset %d", i)
			}
			// A Go raw string drops carriage returns.
			v := strings.ReplaceAll(s[i+1:i+1+end], "\r", "")
			p.toks = append(p.toks, token{kind: 's', text: v, at: i})
			i += end + 2
		case c == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' && s[j] != '\n' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) || s[j] != '"' {
				return fmt.Errorf("unterminated double-quoted string at offset %d", i)
			}
			v, err := strconv.Unquote(s[i : j+1])
			if err != nil {
				return fmt.Errorf("invalid double-quoted string at offset %d: %w", i, err)
			}
			p.toks = append(p.toks, token{kind: 's', text: v, at: i})
			i = j + 1
		case c == '\'':
			return fmt.Errorf("single quote at offset %d: Traefik takes values in backticks or double quotes", i)
		case c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z':
			j := i + 1
			for j < len(s) && (s[j] == '_' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			p.toks = append(p.toks, token{kind: 'i', text: s[i:j], at: i})
			i = j
		default:
			r, _ := utf8.DecodeRuneInString(s[i:])
			return fmt.Errorf("unexpected character %q at offset %d", r, i)
		}
	}
	return nil
}
