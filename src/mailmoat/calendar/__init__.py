"""mailmoat.calendar"""
