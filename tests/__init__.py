"""mailmoat's tests: unit/ (no servers), integration/ (real servers), e2e/ (browser and
whole flows), support/ (servers, fixtures and helpers, imported as tests.support.*)."""
