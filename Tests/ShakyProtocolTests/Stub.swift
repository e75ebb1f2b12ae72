// Tests land next.
