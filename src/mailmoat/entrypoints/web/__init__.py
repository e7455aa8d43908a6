"""mailmoat.entrypoints.web"""
