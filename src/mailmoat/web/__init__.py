"""mailmoat.web"""
