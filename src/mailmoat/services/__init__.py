"""services: the application layer, the one place that composes store and feature packages."""
