"""No Trumpets No Drums (2016 rules, shared/seeds): one subpackage per part of the rulebook (docs/rules/ntnd.md
"Where each rule is implemented"); rules.py is the ruleset, versions.py its versions."""
