"""The variant words, their genders and the templates that agree with them, marked for
extraction (pybabel reads this file; the engine never needs it at run time).

`term(word)` looks a variant word up under the context "variant word". `tr_for(word, ...)`
asks the catalog for the word's gender (context "gender"; the Greek μπουράκο is neuter, "n")
and then for the template under that gender as context: the catalog entries of both are
declared here, since the code names them only at run time. A language whose words take
other genders adds its own entries, and a word without a gender gets the plain translation.
"""

from __future__ import annotations

from .i18n import pmark

#: Each preset's own words (`Variant.biriba_word`, `Variant.biribaki_word`).
WORDS = (
    pmark("variant word", "biriba"),
    pmark("variant word", "beriba"),
    pmark("variant word", "buraco"),
    pmark("variant word", "burraco"),
    pmark("variant word", "biribaki"),
    pmark("variant word", "beribeika"),
    pmark("variant word", "pot"),
    pmark("variant word", "pozzetto"),
)

#: The words whose gender some catalog gives.
GENDERS = (
    pmark("gender", "buraco"),
    pmark("gender", "burraco"),
)

#: The templates whose words agree with a neuter variant word ("καθαρό μπουράκο").
NEUTER = (
    pmark("n", "Clean {biriba} (set)"),
    pmark("n", "Semi-clean {biriba} (set)"),
    pmark("n", "Dirty {biriba} (set)"),
    pmark("n", "Clean kózi full {biriba}"),
    pmark("n", "Semi-clean kózi full {biriba}"),
    pmark("n", "Dirty kózi full {biriba}"),
    pmark("n", "Clean full {biriba}"),
    pmark("n", "Semi-clean full {biriba}"),
    pmark("n", "Dirty full {biriba}"),
    pmark("n", "Clean kózi {biriba}"),
    pmark("n", "Semi-clean kózi {biriba}"),
    pmark("n", "Dirty kózi {biriba}"),
    pmark("n", "Clean {biriba}"),
    pmark("n", "Semi-clean {biriba}"),
    pmark("n", "Dirty {biriba}"),
    pmark("n", "{team} went out without a clean {biriba} on its side."),
)
