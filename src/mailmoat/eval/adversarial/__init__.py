"""The adversarial corpus: hostile emails written for mailmoat, in families."""
