"""The role matrix (tests/test_role_matrix.py): the records it runs against (``world``) and its
rows, one per page or API endpoint and method (``matrix``)."""
