"""Publishing tournaments from organisers' instances to the national body's (issue #32):
``bundle`` (what is sent), ``push`` (the organiser's end), ``verify`` and ``receive`` (the
national body's end), ``api`` (the receiving endpoints), ``views`` (the pages)."""
