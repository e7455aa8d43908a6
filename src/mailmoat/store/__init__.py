"""mailmoat.store"""
