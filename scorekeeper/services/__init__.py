"""Use cases: accounts, clubs, matches and hands. Views and the API call these; these ask the
rules engine for every verdict and score and store what it says."""
