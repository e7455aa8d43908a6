"""mailmoat.act"""
