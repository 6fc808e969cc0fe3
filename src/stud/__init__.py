"""stud: Seven Card Stud, Stud Hi/Lo (8 or better) and Razz."""

__version__ = "0.1.0"
