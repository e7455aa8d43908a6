"""The application layer: the one place that composes the store and the feature packages."""
