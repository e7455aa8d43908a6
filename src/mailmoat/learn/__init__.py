"""mailmoat.learn"""
