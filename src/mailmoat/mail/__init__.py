"""mailmoat.mail"""
