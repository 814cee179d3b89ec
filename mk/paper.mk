# The paper's Tables 1 and 2 (Pisarchyk & Lee 2019) reproduced on the zoo
# networks, each figure beside the published one. Included by the Makefile.
#   make paper      print both tables (MiB, three decimals)
.PHONY: paper
paper: build
	$(ARENAPLAN) paper
