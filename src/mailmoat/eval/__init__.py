"""mailmoat.eval"""
