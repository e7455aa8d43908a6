"""mailmoat.judge"""
