"""mailmoat.notify"""
