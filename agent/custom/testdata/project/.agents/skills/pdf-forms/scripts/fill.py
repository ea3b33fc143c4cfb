import sys
print("would fill", sys.argv[1:])
